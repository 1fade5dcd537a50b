import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The tutorial / playground lives in web/; it imports the package entry from ../bindings.
export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] } },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { outDir: fileURLToPath(new URL('./web/dist', import.meta.url)), emptyOutDir: true, target: 'es2022' },
});
