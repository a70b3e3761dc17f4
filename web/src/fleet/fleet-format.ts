/** Resident memory as the operator reads it: MiB, no decimals. */
export const formatMemory = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;
