import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.API_URL ?? 'http://localhost:8080';

/**
 * The Mantine components of the sign-in form, which nearly every page uses too: one chunk rather than a
 * dozen of one kilobyte each (issue 31: the sign-in page in at most 20 script requests).
 */
const FORM_BASICS =
  /node_modules[\\/]@mantine[\\/](core[\\/]esm[\\/]components[\\/](Text|Alert|CloseButton|UnstyledButton|Button|Paper|PasswordInput|ActionIcon|Input|InputBase|TextInput|Loader)[\\/]|hooks[\\/]esm[\\/](use-id|use-reduced-motion|use-uncontrolled)[\\/]|core[\\/]esm[\\/]core[\\/]styles-api[\\/]use-resolved-styles-api[\\/])/;

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': api, '/config': api },
  },
  build: {
    outDir: process.env.WEB_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'form-basics', test: FORM_BASICS }] } },
    },
  },
});
