export { clearDraft, hasDraft } from './draft';
export { RegistrationWizard, type RegistrationWizardProps } from './RegistrationWizard';
