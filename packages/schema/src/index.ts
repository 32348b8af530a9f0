export * from './admin';
export * from './affiliate';
export * from './auth';
export * from './call';
export * from './common';
export * from './constants';
export * from './content';
export * from './dealer';
