// Embeds the training lab's <relpos-lab> in the chapter's lab slots when that component exists in
// this build. import.meta.glob resolves at build time to the files that exist, so a missing lab
// makes no request at all (no 404, no console error).
const modules = import.meta.glob('../components/relpos-lab.js');

export async function mountLabs() {
  const loader = Object.values(modules)[0];
  const slots = document.querySelectorAll('.lab-slot');
  if (!loader || !slots.length) return false;
  try {
    await loader();
  } catch {
    return false;
  }
  if (!customElements.get('relpos-lab')) return false;
  for (const slot of slots) {
    const lab = document.createElement('relpos-lab');
    lab.dataset.section = slot.dataset.lab;
    slot.append(lab);
  }
  return true;
}
