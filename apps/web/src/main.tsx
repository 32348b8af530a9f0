import { startApp } from './boot';

// index.html: every page but the prerendered landing (landing/main.ts boots the app on demand).
void startApp();
