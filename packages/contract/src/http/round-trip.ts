import { z } from 'zod';

const keysOf = (schema: z.ZodType): string[] => {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(keysOf);
  return [];
};

const withFields = (schema: z.ZodType, fields: z.ZodRawShape): z.ZodType => {
  // safeExtend keeps the schema's refinements and its strictness.
  if (schema instanceof z.ZodObject) return schema.safeExtend(fields);
  if (schema instanceof z.ZodUnion)
    return z.union((schema.options as z.ZodType[]).map((option) => withFields(option, fields)));
  throw new Error('acceptingReadFields takes an object schema or a union of them');
};

/**
 * DESIGN.md "HTTP conventions": a save accepts every field of the entity's GET shape (`read`). The fields
 * the update does not take (ids, derived names, counts, timestamps, `connected`...) are accepted whatever
 * they hold and dropped before the service sees the body; a field of neither shape is still a 400.
 */
export const acceptingReadFields = <U extends z.ZodType>(update: U, read: z.ZodObject) => {
  const writable = new Set(keysOf(update));
  const readOnly = Object.keys(read.shape).filter((key) => !writable.has(key));
  const ignored = Object.fromEntries(
    readOnly.map((key) => [key, z.unknown().optional().describe('Read only: ignored')]),
  );
  return withFields(update, ignored).transform((body) => {
    const rest = { ...(body as Record<string, unknown>) };
    for (const key of readOnly) delete rest[key];
    return rest as z.output<U>;
  });
};
