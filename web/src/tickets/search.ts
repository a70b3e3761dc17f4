/** The Search tab's text (2.4): lowercased; clearing it returns to the Open tab. */
export function searchQuery(text: string) {
  const searchParam = text.trim().toLowerCase();
  return { searchParam, backToOpen: searchParam === '' };
}
