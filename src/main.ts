import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { refuseNavigation } from './lib/navigation-guard.ts';
import { createAppRouter } from './router/index.ts';
import './styles/base.css';

refuseNavigation();
const app = createApp(App);
const pinia = createPinia();
app.use(pinia);
app.use(createAppRouter(pinia));
app.mount('#app');
