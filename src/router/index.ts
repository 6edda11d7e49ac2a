import type { Pinia } from 'pinia';
import { createRouter, createWebHistory } from 'vue-router';
import { useSessionStore } from '../stores/session.ts';

export function createAppRouter(pinia: Pinia) {
  const router = createRouter({
    history: createWebHistory(),
    routes: [
      { path: '/', name: 'library', component: () => import('../views/LibraryView.vue'), meta: { signedIn: true } },
      {
        path: '/guides/:guideid(\\d+)',
        name: 'guide',
        component: () => import('../views/GuideView.vue'),
        props: (route) => ({ guideid: Number(route.params.guideid) }),
        meta: { signedIn: true },
      },
      { path: '/search', name: 'search', component: () => import('../views/SearchView.vue'), meta: { signedIn: true } },
      { path: '/sync', name: 'sync', component: () => import('../views/SyncView.vue'), meta: { signedIn: true } },
      { path: '/sessions', name: 'sessions', component: () => import('../views/SessionsView.vue'), meta: { signedIn: true } },
      {
        path: '/sessions/:id',
        name: 'work-session',
        component: () => import('../views/SessionView.vue'),
        props: (route) => ({ id: String(route.params.id) }),
        meta: { signedIn: true },
      },
      { path: '/quizzes', name: 'quizzes', component: () => import('../views/QuizzesView.vue'), meta: { signedIn: true } },
      {
        path: '/quizzes/:quizRevisionid(\\d+)',
        name: 'quiz',
        component: () => import('../views/QuizView.vue'),
        props: (route) => ({ quizRevisionid: Number(route.params.quizRevisionid) }),
        meta: { signedIn: true },
      },
      { path: '/connect', name: 'connect', component: () => import('../views/ConnectView.vue') },
      { path: '/:rest(.*)*', redirect: '/' },
    ],
    scrollBehavior: () => ({ top: 0 }),
  });

  router.beforeEach(async (to) => {
    const session = useSessionStore(pinia);
    if (session.status === null) await session.load();
    if (to.meta.signedIn && !session.signedIn) return { name: 'connect' };
    if (to.name === 'connect' && session.signedIn) return { name: 'library' };
    return true;
  });
  return router;
}

declare module 'vue-router' {
  interface RouteMeta {
    signedIn?: boolean;
  }
}
