/** "File sizes are displayed as Bytes, KB, MB, GB, TB." (spec 000 section 9) */
export const FILE_SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte count for people, in steps of 1024, with at most `decimals` decimals and no trailing zeros:
 * `0` -> `0 Bytes`, `1536` -> `1.5 KB`, `52428800` -> `50 MB`. Anything from 1024 TB up stays in TB.
 */
export function formatFileSize(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const places = Math.max(0, Math.min(20, Math.trunc(decimals)));
  const shown = unit === 0 ? Math.round(value) : Number(value.toFixed(places));
  return `${shown} ${FILE_SIZE_UNITS[unit]}`;
}
