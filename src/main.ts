import { createPinia } from 'pinia';
import { createApp } from 'vue';
import { BRIDGE_GLOBAL } from '../electron/contract.ts';
import App from './App.vue';
import { adoptLaunch } from './bridge/launch.ts';
import { refuseNavigation } from './lib/navigation-guard.ts';
import { oneTapOneStep } from './lib/taps.ts';
import { createAppRouter, preloadWorkScreens } from './router/index.ts';
import './styles/base.css';

async function start(): Promise<void> {
  refuseNavigation();
  oneTapOneStep(window);
  // The web shell: the launch secret of the printed address is taken before anything calls the App API.
  if (!window[BRIDGE_GLOBAL]) await adoptLaunch();
  const app = createApp(App);
  const pinia = createPinia();
  app.use(pinia);
  app.use(createAppRouter(pinia));
  app.mount('#app');
  preloadWorkScreens();
}

void start();
