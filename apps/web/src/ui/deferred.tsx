import { Component, type ComponentType, lazy, type ReactNode, Suspense } from 'react';

/**
 * A component whose code is loaded on first render (React.lazy for named exports), plus `preload` to
 * fetch it earlier. It keeps rarely needed widgets out of the JavaScript the sign-in page and shell load.
 */
export const lazyNamed = <P extends object>(load: () => Promise<ComponentType<P>>) => {
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load();
    return loading;
  };
  return Object.assign(
    lazy(() => preload().then((loaded) => ({ default: loaded }))),
    { preload },
  );
};

type DeferredProps = { fallback: ReactNode; children: ReactNode };

/**
 * Shows `fallback` while the children's code loads, and keeps showing it if the download fails: a shell
 * widget that cannot load must not take the page down with it.
 */
export class Deferred extends Component<DeferredProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) return this.props.fallback;
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
