import type { AppRouter } from '@dn/api';
import type { inferRouterOutputs } from '@trpc/server';

type Out = inferRouterOutputs<AppRouter>['onboarding'];
export type Onboarding = Out['mine'];
export type OnboardingStep = Onboarding['steps'][number];
export type StepOf<K extends OnboardingStep['key']> = Extract<OnboardingStep, { key: K }>;
export type AdminOnboarding = Out['dealer'];
export type AdminAgreement = Out['agreements'][number];
export type InventorySetting = Out['settings'][number];
