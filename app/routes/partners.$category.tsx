export default function Page() {
  return <h1>partners.$category</h1>;
}
