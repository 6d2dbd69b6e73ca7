export default function Page() {
  return <h1>mission</h1>;
}
