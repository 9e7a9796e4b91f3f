import { convertCrashSuite } from './test-support/convert-crash-suite.js';

convertCrashSuite('rotate');
