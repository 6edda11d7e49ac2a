import type { Pinia } from 'pinia';
import { createRouter, createWebHistory } from 'vue-router';
import { focusWhenShown } from '../lib/focus.ts';
import { useSessionStore } from '../stores/session.ts';

const guideView = () => import('../views/GuideView.vue');
const sessionView = () => import('../views/SessionView.vue');

/**
 * Loads the screens of the work (a guide, its run mode) while the first screen idles: the first guide of
 * the day then opens as fast as the next (it waited for their code first: 320 to 410 ms from the click,
 * against about 150 ms; `BENCH_ONLY=waits npm run bench`). A load that fails is tried again on the way there.
 */
export function preloadWorkScreens(): void {
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  idle(() => {
    for (const load of [guideView, sessionView]) load().catch(() => undefined);
  });
}

export function createAppRouter(pinia: Pinia) {
  const router = createRouter({
    history: createWebHistory(),
    routes: [
      { path: '/', name: 'library', component: () => import('../views/LibraryView.vue'), meta: { signedIn: true } },
      {
        path: '/guides/:guideid(\\d+)',
        name: 'guide',
        component: guideView,
        props: (route) => ({ guideid: Number(route.params.guideid) }),
        meta: { signedIn: true },
      },
      {
        path: '/mine',
        name: 'my-guides',
        component: () => import('../views/MyGuidesView.vue'),
        meta: { signedIn: true },
      },
      { path: '/search', name: 'search', component: () => import('../views/SearchView.vue'), meta: { signedIn: true } },
      { path: '/sync', name: 'sync', component: () => import('../views/SyncView.vue'), meta: { signedIn: true } },
      {
        path: '/sessions',
        name: 'sessions',
        component: () => import('../views/SessionsView.vue'),
        meta: { signedIn: true },
      },
      {
        path: '/sessions/:id',
        name: 'work-session',
        component: sessionView,
        props: (route) => ({ id: String(route.params.id) }),
        // The session view puts focus on the step's first field itself.
        meta: { signedIn: true, focusesItself: true },
      },
      {
        path: '/sessions/:id/report',
        name: 'session-report',
        component: () => import('../views/SessionReportView.vue'),
        props: (route) => ({ id: String(route.params.id) }),
        meta: { signedIn: true },
      },
      {
        path: '/quizzes',
        name: 'quizzes',
        component: () => import('../views/QuizzesView.vue'),
        meta: { signedIn: true },
      },
      {
        path: '/quizzes/:quizRevisionid(\\d+)',
        name: 'quiz',
        component: () => import('../views/QuizView.vue'),
        props: (route) => ({ quizRevisionid: Number(route.params.quizRevisionid) }),
        meta: { signedIn: true },
      },
      { path: '/connect', name: 'connect', component: () => import('../views/ConnectView.vue') },
      { path: '/switch', name: 'switch', component: () => import('../views/SwitchView.vue') },
      { path: '/:rest(.*)*', redirect: '/' },
    ],
    // The screens scroll in the main area, not the window: a new screen starts at its top there too. The
    // Switch screen scrolled down to a row's form left the library it led to 74 px down, its notice (who was
    // signed in) above the window (a walk of a shared laptop's morning).
    scrollBehavior: (to, from) => {
      if (to.path !== from.path && !to.hash) document.querySelector('.app-main')?.scrollTo({ top: 0 });
      return { top: 0 };
    },
  });

  router.beforeEach(async (to) => {
    const session = useSessionStore(pinia);
    if (session.status === null) await session.load();
    // Nobody works now: on a laptop that knows its site, the next technician signs in on the switch screen.
    if (to.meta.signedIn && !session.signedIn) return { name: session.status?.site ? 'switch' : 'connect' };
    if (to.name === 'switch' && !session.status?.site) return { name: 'connect' };
    if (to.name === 'connect' && session.signedIn) return { name: 'library' };
    return true;
  });
  // A new screen: focus its heading, so the keyboard starts there and a screen reader says where it is.
  // Not on the first load, and not when only the query changes (a search as it is typed, a work
  // session's step: that view moves focus to the step itself).
  router.afterEach((to, from, failure) => {
    // A link to a part of a screen (the sync centre's conflicts): that screen takes the keyboard there itself.
    if (failure || from.matched.length === 0 || to.path === from.path || to.meta.focusesItself || to.hash) return;
    focusWhenShown('.app-main h1');
  });
  return router;
}

declare module 'vue-router' {
  interface RouteMeta {
    signedIn?: boolean;
    focusesItself?: boolean;
  }
}
