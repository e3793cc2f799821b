/** The wire layer, free of any Pulumi import: usable from scripts, tests and the emulator. */
export * from "./client";
export * from "./errors";
export * from "./poll";
export * from "./controlPlane";
export * from "./schemas/controlPlane";
export * from "./filter";
export * from "./bulkExport";
export * from "./schemas/bulkExport";
export * from "./reconcile";
