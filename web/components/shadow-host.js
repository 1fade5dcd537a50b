// An element with an open shadow root from its construction: the base of the elements that draw
// their own page (relpos-lab, relpos-reproduction); the figure elements get theirs from
// RelposElement (element.js).
export class ShadowHost extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }
}
