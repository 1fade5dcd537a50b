// Runs before the first paint of every page (a file, not an inline script: the pages' policy allows
// same-origin scripts only). It applies the reader's colour scheme and language remembered by
// web/site/shell.js and web/i18n/index.js, so a page never flashes the other scheme or script.
try {
  const root = document.documentElement;
  const theme = localStorage.getItem('relpos-theme');
  if (theme === 'light' || theme === 'dark') root.setAttribute('data-theme', theme);
  const lang = new URLSearchParams(location.search).get('lang') || localStorage.getItem('relpos-lang');
  if (lang === 'zh') root.lang = 'zh-CN';
} catch {
  // storage unavailable: the system's scheme and English
}
