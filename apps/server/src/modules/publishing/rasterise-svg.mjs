// Renders one SVG icon to a PNG in a process of its own (icons.ts forks it). A render cannot be stopped
// from inside the server (sharp runs it on the shared libuv thread pool until librsvg is done), but this
// process can be killed when it takes too long, which frees its thread at once.
// Plain JavaScript so that it starts without a TypeScript loader.
import sharp from 'sharp';

sharp.concurrency(1);
sharp.cache(false);

const answer = (message) => process.send(message, () => process.exit(0));

process.once('message', async ({ svg, size, maxPixels }) => {
  try {
    const input = Buffer.from(svg);
    const metadata = await sharp(input).metadata();
    if (metadata.format !== 'svg') return answer({ error: 'type' });
    // Rendered at the density that makes its longer side `size` pixels, never at a huge declared size.
    const longest = Math.max(metadata.width ?? size, metadata.height ?? size, 1);
    const density = Math.min(Math.max((72 * size) / longest, 1), 100000);
    const png = await sharp(input, { density, limitInputPixels: maxPixels })
      .resize(size, size, { fit: 'inside' })
      .png()
      .toBuffer();
    return answer({ png });
  } catch (error) {
    return answer({ error: 'render', message: error instanceof Error ? error.message : String(error) });
  }
});
process.once('disconnect', () => process.exit(0));
process.send({ ready: true });
