import { login } from '@dn/schema';
import { adminLogin, currentUser, dealerLogin, logout } from '../services/auth';
import { defineRoute } from './route';

export const authRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/auth/user',
    access: 'public',
    summary: 'The signed-in user (401 when signed out)',
    handler: async (ctx) => currentUser(ctx),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/logout',
    access: 'public',
    summary: 'Signs out: destroys the session and clears its cookie',
    handler: (ctx) => logout(ctx),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/dealer/login',
    access: 'public',
    summary: 'Dealer sign-in (username is the email)',
    input: login,
    handler: (ctx, input) => dealerLogin(ctx, input),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/login',
    access: 'public',
    summary: 'Admin sign-in',
    input: login,
    handler: (ctx, input) => adminLogin(ctx, input),
  }),
];
