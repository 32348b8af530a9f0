export { ConfirmModal, type ConfirmModalProps } from './ConfirmModal';
export { type DataColumn, DataTable, type DataTableProps } from './DataTable';
export { StatusBadge } from './StatusBadge';
export { cssVariablesResolver, theme } from './theme';
