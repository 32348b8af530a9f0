import { createRequire } from 'node:module';

/**
 * US ZIP code centroids from the `zipcodes` package (decision 0910): 42,555 US ZIP codes with
 * latitude and longitude, shipped with the package, read once on first use (~0.4 s, ~30 MB).
 */

export interface ZipCentroid {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}

type ZipCodes = { lookup(zip: string): (ZipCentroid & { country: string }) | undefined };
let data: ZipCodes | undefined;

/** The centroid of a US ZIP code, or undefined when the data set does not know it. */
export function zipCentroid(zip: string): ZipCentroid | undefined {
  data ??= createRequire(import.meta.url)('zipcodes') as ZipCodes;
  const found = /^\d{5}$/.test(zip) ? data.lookup(zip) : undefined;
  if (found?.country !== 'US') return undefined;
  return { zip: found.zip, latitude: found.latitude, longitude: found.longitude, city: found.city, state: found.state };
}
