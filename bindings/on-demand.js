// Something fetched on first use and kept (a wasm module, a chunk of code): `load()` starts the fetch
// once and resolves when `value` is set; a failed fetch is forgotten, so a later load() retries.
export function onDemand(fetch) {
  let loading = null;
  const state = {
    value: null,
    load() {
      if (!loading) {
        loading = fetch().then((value) => {
          state.value = value;
        });
        loading.catch(() => {
          loading = null;
        });
      }
      return loading;
    },
  };
  return state;
}
