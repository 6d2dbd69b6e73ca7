export default function Page() {
  return <h1>catalog</h1>;
}
