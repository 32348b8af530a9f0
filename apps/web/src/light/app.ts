/**
 * The app as the light pages' scripts load it (decision 1160): an entry of the app's build whose
 * export keeps its name, so the light scripts, built apart (vite/prerender-light.ts), import it by URL.
 */
export { startApp } from '../boot';
