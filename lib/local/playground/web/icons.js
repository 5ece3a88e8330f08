/**
 * The page's pictograms as inline SVG, drawn with the text colour: the same on every machine,
 * where emoji depend on an emoji font (without one, Debian's Chromium draws empty boxes).
 * 24-unit artboards, 2-unit round strokes.
 */

const SVG = 'http://www.w3.org/2000/svg';

const DRAWINGS = {
  // Two wheels, the frame's triangles, saddle and handlebar.
  bicycle: [
    ['circle', { cx: 5.5, cy: 16.5, r: 3.5 }],
    ['circle', { cx: 18.5, cy: 16.5, r: 3.5 }],
    ['path', { d: 'M5.5 16.5 L9.5 8.5 L16 8.5 L18.5 16.5 M9.5 8.5 L12 16.5 L16 8.5 M5.5 16.5 H12 M8 6.5 H11 M14.5 6 L16 8.5' }],
  ],
  // A person mid-stride.
  walking: [
    ['circle', { cx: 13, cy: 4, r: 2 }],
    ['path', { d: 'M12.5 7.5 L11 13.5 L8 20.5 M11 13.5 L14 16.5 L15 20.5 M12 9 L8.5 11.5 M12.2 9 L15.5 12' }],
  ],
};

/** A pictogram; `label` names it for assistive technology, else it is decoration. */
export function icon(name, label = null, size = 16) {
  const svg = document.createElementNS(SVG, 'svg');
  const attributes = { viewBox: '0 0 24 24', width: size, height: size, fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', class: `icon icon-${name}` };
  for (const [attribute, value] of Object.entries(attributes)) svg.setAttribute(attribute, String(value));
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else svg.setAttribute('aria-hidden', 'true');
  for (const [tag, shapeAttributes] of DRAWINGS[name]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [attribute, value] of Object.entries(shapeAttributes)) shape.setAttribute(attribute, String(value));
    svg.append(shape);
  }
  return svg;
}
