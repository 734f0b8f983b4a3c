// Vite turns imported .css into a stylesheet link; it has no exports.
declare module "*.css";
