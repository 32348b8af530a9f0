export { Footer } from './Footer';
export { Logo } from './Logo';
export { MobileMenu } from './MobileMenu';
export { TopNav } from './TopNav';
