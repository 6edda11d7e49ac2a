import type { Pinia } from 'pinia';
import { createRouter, createWebHistory } from 'vue-router';
import { useSessionStore } from '../stores/session.ts';

export function createAppRouter(pinia: Pinia) {
  const router = createRouter({
    history: createWebHistory(),
    routes: [
      { path: '/', name: 'home', component: () => import('../views/HomeView.vue'), meta: { signedIn: true } },
      { path: '/connect', name: 'connect', component: () => import('../views/ConnectView.vue') },
      { path: '/:rest(.*)*', redirect: '/' },
    ],
  });

  router.beforeEach(async (to) => {
    const session = useSessionStore(pinia);
    if (session.status === null) await session.load();
    if (to.meta.signedIn && !session.signedIn) return { name: 'connect' };
    if (to.name === 'connect' && session.signedIn) return { name: 'home' };
    return true;
  });
  return router;
}

declare module 'vue-router' {
  interface RouteMeta {
    signedIn?: boolean;
  }
}
