/**
 * An attachment's Content-Disposition (RFC 6266): an ASCII fallback name and the real one in RFC 8187
 * encoding. Written here because the content-disposition package's current major needs Node 22.
 */
export const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
