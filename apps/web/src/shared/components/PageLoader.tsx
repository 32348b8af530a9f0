import { Center, Loader } from '@mantine/core';

/** What a page shows while the current user is still being read. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}
