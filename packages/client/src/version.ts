/** This package's version (checked against package.json by the build). */
export const VERSION = '0.1.0';
