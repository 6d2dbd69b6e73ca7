export default function Page() {
  return <h1>innovation</h1>;
}
