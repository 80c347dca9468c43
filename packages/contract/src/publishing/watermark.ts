import type { FormSchemaItem } from '../forms/schema.ts';
import { WATERMARK_ICON_FIELD, WATERMARK_IMAGES, type WatermarkImage } from './catalogue.ts';
import type { PublishModule } from './publishing.ts';

/** The image a watermark node's options ask for; none when they name none (a button saved before images). */
export const watermarkImageOf = (options: Record<string, unknown>): WatermarkImage =>
  WATERMARK_IMAGES.find((image) => image === options.image) ?? 'none';

/** The uploaded icon a watermark node's options name, when its image is 'uploaded'. */
export const watermarkIconIdOf = (options: Record<string, unknown>) => {
  const id = Number(options[WATERMARK_ICON_FIELD]);
  return Number.isInteger(id) && id > 0 ? id : undefined;
};

/**
 * A module as a context offers it: the watermark's icon field chooses among that context's uploaded icons
 * (GET /api/{ctx}/publishModules), their ids the values and their names the labels.
 */
export const withIconChoices = (module: PublishModule, icons: readonly { id: number; name: string }[]) => {
  if (module.id !== 'watermark') return module;
  const choices = (item: FormSchemaItem): FormSchemaItem =>
    item.name === WATERMARK_ICON_FIELD
      ? {
          ...item,
          allowedValues: icons.map((icon) => String(icon.id)),
          valueLabels: Object.fromEntries(icons.map((icon) => [String(icon.id), icon.name])),
        }
      : item;
  return { ...module, schema: module.schema.map(choices) };
};
