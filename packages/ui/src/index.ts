export { ConfirmModal, type ConfirmModalProps } from './ConfirmModal';
export { cssVariablesResolver, theme } from './theme';
