export * from './identity.js';
export * from './seal.js';
