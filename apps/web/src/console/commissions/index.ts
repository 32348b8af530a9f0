export { CommissionsTab } from './CommissionsTab';
export { DealerOrders } from './DealerOrders';
