/** Whether a database error is a unique-index violation (both drivers put the SQLSTATE on `code` or its cause). */
export const isUniqueViolation = (error: unknown) => {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
};

/** The unique index is the last word when two requests race for a name: its violation becomes `conflict()`. */
export const translateUniqueViolation = (error: unknown, conflict: () => Error) =>
  isUniqueViolation(error) ? conflict() : error;
