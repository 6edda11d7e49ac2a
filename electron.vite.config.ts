import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'electron-vite';
import { APP_METHODS } from './electron/core/app-methods.ts';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('electron/main/index.ts') } },
    },
  },
  preload: {
    // The methods the preload exposes, from the core's declarations: it cannot load the core itself.
    define: { __APP_METHODS__: JSON.stringify(APP_METHODS) },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can only `require('electron')`: bundle everything else into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src',
    plugins: [
      vue(),
      // electron-vite's preset forces `base: './'` for file:// loads; this app serves the renderer from
      // app:// and the web shell, and routes in its own history, so assets must resolve from the root
      // (a reload of /guides/3 would otherwise ask for /guides/assets/...). Runs after the preset.
      { name: 'fieldguide-absolute-base', config: () => ({ base: '/' }) },
      // survey-vue3-ui 3.0.0 renders its <form> with the inline handler `onsubmit="return false;"`, which
      // the CSP (`script-src 'self'`) refuses and reports. Same effect, as a listener Vue attaches.
      {
        name: 'fieldguide-survey-form-without-inline-handler',
        transform(code, id) {
          if (!id.split('?')[0]!.endsWith('/node_modules/survey-vue3-ui/survey-vue3-ui.es.js')) return null;
          const inline = '{ onsubmit: "return false;" }';
          if (!code.includes(inline))
            throw new Error('survey-vue3-ui changed: check its <form> for an inline onsubmit handler');
          return code.replace(inline, '{ onSubmit: (event) => event.preventDefault() }');
        },
      },
    ],
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: resolve('src/index.html') },
    },
  },
});
