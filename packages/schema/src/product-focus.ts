// Its own module (not constants.ts): the wizard and the dealer schema need it, the app shell does not.
/** Product focus taxonomy (SPEC section 3): categories, optional sub-groups, items. */
export interface FocusCategory {
  category: string;
  groups: { group?: string; items: string[] }[];
}
export const PRODUCT_FOCUS: FocusCategory[] = [
  {
    category: 'Energy',
    groups: [
      { group: 'Solar', items: ['Residential', 'Commercial', 'Community', 'Off-grid'] },
      {
        group: 'Alternative Energy',
        items: ['Deregulation', 'Wind', 'Stand Alone Batteries', 'Camping & Travel', 'Essential Power Backup', 'Hydro'],
      },
      {
        group: 'Energy Efficiency',
        items: [
          'Arctic Blanket and Breeze',
          'Power Factor Correction',
          'Electricity Optimizers',
          'Geodesic Dome Structures',
          'HVAC',
          'Lightning',
        ],
      },
    ],
  },
  { category: 'Healthy Food & Water', groups: [{ items: ['Permaculture', 'Water', 'Food'] }] },
  {
    category: 'Longevity & Health Optimization',
    groups: [{ items: ['Healing Technology', 'Bio-hacking', 'Supplements'] }],
  },
  { category: 'Special Financing Services', groups: [{ items: ['Commercial', 'Residential', 'Beyond Solar'] }] },
  {
    category: 'Freedom & Wealth Building',
    groups: [{ items: ['Privatization', 'Private Trusts', 'Personal Growth', 'Personal Development'] }],
  },
];

/**
 * The value stored for a focus item. Item names repeat across categories (Residential,
 * Commercial), so the value carries its group or category: "Solar: Residential".
 */
export function focusValue(category: FocusCategory, group: { group?: string }, item: string): string {
  return `${group.group ?? category.category}: ${item}`;
}

export const PRODUCT_FOCUS_VALUES: readonly string[] = PRODUCT_FOCUS.flatMap((c) =>
  c.groups.flatMap((g) => g.items.map((i) => focusValue(c, g, i))),
);

const FOCUS_ITEMS = PRODUCT_FOCUS.flatMap((c) =>
  c.groups.flatMap((g) => g.items.map((item) => ({ item, value: focusValue(c, g, item) }))),
);
const choicesOf = (item: string) => FOCUS_ITEMS.filter((f) => f.item === item).map((f) => f.value);

/** The spec's plain item names that occur once ("Wind", "HVAC"), each to its stored value. */
export const PRODUCT_FOCUS_PLAIN: Readonly<Record<string, string>> = Object.fromEntries(
  FOCUS_ITEMS.filter((f) => choicesOf(f.item).length === 1).map((f) => [f.item, f.value]),
);
/** Plain names that occur more than once ("Residential"), each to its qualified choices. */
export const PRODUCT_FOCUS_AMBIGUOUS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  FOCUS_ITEMS.filter((f) => choicesOf(f.item).length > 1).map((f) => [f.item, choicesOf(f.item)]),
);
/** What `productVerticals` accepts: every qualified value and every unique plain name. */
export const PRODUCT_FOCUS_ACCEPTED: readonly string[] = [...PRODUCT_FOCUS_VALUES, ...Object.keys(PRODUCT_FOCUS_PLAIN)];

export const productFocusAmbiguousMessage = (name: string, choices: readonly string[]) =>
  `"${name}" is in more than one category: send one of ${choices.map((c) => `"${c}"`).join(' or ')}`;
