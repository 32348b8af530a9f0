export { ForgotPasswordDialog } from './ForgotPasswordDialog';
export { LoginForm } from './LoginForm';
export { LINK_ERRORS, loginFailureMessage, loginPageError, offersFreshLink, serverMessage } from './messages';
export { PasswordFields } from './PasswordFields';
export { SetupPasswordForm } from './SetupPasswordForm';
