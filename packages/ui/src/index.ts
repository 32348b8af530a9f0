export { ConfirmModal, type ConfirmModalProps } from './ConfirmModal';
export { type DataColumn, DataTable, type DataTableProps } from './DataTable';
export { type RowAction, RowActions } from './RowActions';
export { StatusBadge } from './StatusBadge';
export { TooltipDelayGroup } from './TooltipDelayGroup';
export { cssVariablesResolver, theme } from './theme';
export { POPUP_VIEWPORT_MARGIN_PX, TOAST, TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './ui-constants';
