import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.GUILDHALL_API ?? 'http://localhost:3000';

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  plugins: [react()],
  resolve: {
    // One copy of React and Mantine even when a workspace hoists another version.
    dedupe: [
      'react',
      'react-dom',
      'react-router',
      '@mantine/core',
      '@mantine/hooks',
      '@tanstack/react-query',
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/a/ViewTemplates': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: { port: 4173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
  },
});
