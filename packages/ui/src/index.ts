export { cssVariablesResolver, theme } from './theme';
