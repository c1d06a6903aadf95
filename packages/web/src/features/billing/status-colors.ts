/** The badge colour of each invoice status, the same on every billing screen. */
export const STATUS_COLORS: Record<string, string> = {
  open: 'blue',
  partially_paid: 'yellow',
  paid: 'green',
  void: 'gray',
  written_off: 'red',
  draft: 'gray',
};
