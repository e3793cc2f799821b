/** The bulk-export resources' implementations: ExportDestination, ScheduledExport, BulkExport. */
export { exportDestinationProvider, createExportDestinationProvider } from "../exportDestination/provider";
export { scheduledExportProvider, createScheduledExportProvider } from "../scheduledExport/provider";
export { bulkExportProvider, createBulkExportProvider, type BulkExportProviderOptions } from "../bulkExport/provider";
export * from "./types";
