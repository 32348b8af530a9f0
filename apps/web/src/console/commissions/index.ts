export { CommissionsTab } from './CommissionsTab';
export { DealerOrders } from './DealerOrders';
export { default as RecordOrderDialog } from './RecordOrderDialog';
