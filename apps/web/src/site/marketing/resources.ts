/**
 * The resources page's external links. The spec names them but not their addresses: these are
 * the places the business keeps them; change them here (decision 0103).
 */
export const RESOURCE_LINKS = [
  {
    title: 'Product Presentation',
    description: 'The deck we show homeowners: products, savings and installation.',
    href: 'https://docs.google.com/presentation/',
  },
  {
    title: 'Educational Presentation',
    description: 'Radiant heat, attic ventilation and why energy bills climb.',
    href: 'https://docs.google.com/presentation/',
  },
  {
    title: 'Shared Drive',
    description: 'Logos, photos, price sheets and forms for dealers.',
    href: 'https://drive.google.com/',
  },
] as const;
