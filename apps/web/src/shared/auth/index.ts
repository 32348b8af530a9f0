export { ForgotPasswordDialog } from './ForgotPasswordDialog';
export { LoginForm } from './LoginForm';
export { LINK_ERRORS, loginFailureMessage, loginPageError, offersFreshLink, serverMessage } from './messages';
export { PasswordFields, SignInFields } from './PasswordFields';
export { SessionEndedNotice } from './SessionEndedNotice';
export { SetupPasswordForm } from './SetupPasswordForm';
