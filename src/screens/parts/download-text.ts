/**
 * Hands a text file to the browser as a download (the attendance CSV, issue #23.4): a Blob URL on a
 * temporary link, revoked after the click so the file's personal data does not stay addressable.
 * A byte-order mark goes first: without it Excel reads UTF-8 names (Peña, Nguyễn) as Latin-1.
 */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    URL.revokeObjectURL(url);
  }
}
