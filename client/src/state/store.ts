import { createStore } from 'jotai';

/**
 * The page's one jotai store. React reads it through <Provider store={appStore}>; the router's
 * guards and the session code (outside React) read and write the same atoms through it.
 */
export const appStore = createStore();
export type AppStore = typeof appStore;
