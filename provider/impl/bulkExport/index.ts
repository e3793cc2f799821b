/** The bulk-export resources' implementations: ExportDestination, ScheduledExport, BulkExport. */
export { exportDestinationProvider, createExportDestinationProvider } from "./destination";
export { scheduledExportProvider, createScheduledExportProvider } from "./scheduledExport";
export { bulkExportProvider, createBulkExportProvider, type BulkExportProviderOptions } from "./oneOffExport";
export * from "./types";
