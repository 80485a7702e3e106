import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API server (npm start) serves dist/ and /api on one origin; in dev, Vite proxies /api and
// /login to it so the app keeps its same-origin calls.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:4173',
      '/login': 'http://127.0.0.1:4173',
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
});
