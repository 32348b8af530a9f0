export { RegistrationWizard, type RegistrationWizardProps } from './RegistrationWizard';
