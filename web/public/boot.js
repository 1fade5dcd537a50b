// Runs before the first paint of every page (a file, not an inline script: the pages' policy allows
// same-origin scripts only). It applies the reader's colour scheme and language remembered by
// web/site/shell.js and web/i18n/index.js, so a page never flashes the other scheme or script: the
// words a page carries in English (web/site/first-figure.js) stay hidden for a Chinese reader until
// web/i18n/index.js has put the Chinese ones (data-words="pending").
try {
  const root = document.documentElement;
  const theme = localStorage.getItem('relpos-theme');
  if (theme === 'light' || theme === 'dark') root.setAttribute('data-theme', theme);
  const lang = new URLSearchParams(location.search).get('lang') || localStorage.getItem('relpos-lang');
  if (lang === 'zh') {
    root.lang = 'zh-CN';
    root.dataset.words = 'pending';
  }
} catch {
  // storage unavailable: the system's scheme and English
}

// The wasm the page's <head> preloads for compiling (data-compile: the core, and the models module
// where a page needs it at once) compiles from its first byte, while the page's scripts still load:
// bindings/loading.js instantiates the compiled module (web/site/build-plugin.js writes the links).
try {
  const compiling = {};
  for (const link of document.querySelectorAll('link[rel="preload"][data-compile]')) {
    compiling[link.href] = WebAssembly.compileStreaming(fetch(link.href, { credentials: 'same-origin' }));
    compiling[link.href].catch(() => {}); // the glue then compiles the file itself
  }
  window.relposCompiling = compiling;
} catch {
  // no streaming compile here: the glue compiles the file itself
}
